-- Durable files (expires_at null), why a file was deleted, and the daily storage charges.
-- drizzle-kit's rebuild of `files` copied the new deleted_reason column from the old table, which
-- has none; it is copied as NULL instead.
CREATE TABLE `storage_charges` (
	`account_id` text NOT NULL,
	`day` text NOT NULL,
	`durable_bytes` integer NOT NULL,
	`amount_micros` integer NOT NULL,
	`created_at` integer NOT NULL,
	`charged_at` integer,
	PRIMARY KEY(`account_id`, `day`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `storage_charges_owed` ON `storage_charges` (`charged_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_files` (
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
	`expires_at` integer,
	`deleted_at` integer,
	`deleted_reason` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_files`("id", "account_id", "kind", "status", "r2_key", "filename", "content_type", "size_bytes", "sha256", "created_at", "expires_at", "deleted_at", "deleted_reason") SELECT "id", "account_id", "kind", "status", "r2_key", "filename", "content_type", "size_bytes", "sha256", "created_at", "expires_at", "deleted_at", NULL FROM `files`;--> statement-breakpoint
DROP TABLE `files`;--> statement-breakpoint
ALTER TABLE `__new_files` RENAME TO `files`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `files_account` ON `files` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `files_expiry` ON `files` (`status`,`expires_at`);