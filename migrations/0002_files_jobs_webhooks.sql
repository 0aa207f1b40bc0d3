CREATE TABLE `files` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`kind` text NOT NULL,
	`status` text NOT NULL,
	`r2_key` text NOT NULL,
	`filename` text,
	`content_type` text NOT NULL,
	`size_bytes` integer NOT NULL,
	`sha256` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`deleted_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `files_account` ON `files` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `files_expiry` ON `files` (`status`,`expires_at`);--> statement-breakpoint
CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`key_id` text NOT NULL,
	`operation` text NOT NULL,
	`status` text NOT NULL,
	`request` text NOT NULL,
	`result` text,
	`error` text,
	`progress` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`lease_until` integer,
	`webhook_url` text,
	`webhook_secret_sealed` text,
	`created_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `jobs_account` ON `jobs` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `jobs_status` ON `jobs` (`status`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`message_id` text NOT NULL,
	`job_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`url` text NOT NULL,
	`outcome` text NOT NULL,
	`response_status` integer,
	`error` text,
	`attempted_at` integer NOT NULL,
	`next_attempt_at` integer,
	FOREIGN KEY (`job_id`) REFERENCES `jobs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_delivery_attempt` ON `webhook_deliveries` (`message_id`,`attempt`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_job` ON `webhook_deliveries` (`job_id`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `retention_hours` integer DEFAULT 24 NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `webhook_url` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `webhook_secret_sealed` text;