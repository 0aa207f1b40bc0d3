-- Remote origins (POST /v1/origins) and what is kept of each origin path's original.
CREATE TABLE `origin_objects` (
	`origin_id` text NOT NULL,
	`path` text NOT NULL,
	`account_id` text NOT NULL,
	`status` text NOT NULL,
	`version` text,
	`r2_key` text,
	`size_bytes` integer,
	`content_type` text,
	`upstream_etag` text,
	`upstream_last_modified` text,
	`lifetime_seconds` integer NOT NULL,
	`fresh_until` integer NOT NULL,
	`fetched_at` integer NOT NULL,
	PRIMARY KEY(`origin_id`, `path`)
);
--> statement-breakpoint
CREATE TABLE `origins` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`kind` text NOT NULL,
	`base_url` text NOT NULL,
	`s3_region` text,
	`s3_access_key_id` text,
	`s3_secret_sealed` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `origins_account_name` ON `origins` (`account_id`,`name`);