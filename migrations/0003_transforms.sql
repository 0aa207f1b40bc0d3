CREATE TABLE `derivatives` (
	`account_id` text NOT NULL,
	`file_id` text NOT NULL,
	`canonical` text NOT NULL,
	`format_class` text NOT NULL,
	`r2_key` text NOT NULL,
	`etag` text NOT NULL,
	`bytes` integer NOT NULL,
	`content_type` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `derivatives_identity` ON `derivatives` (`account_id`,`file_id`,`canonical`,`format_class`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `require_signed_transforms` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `signing_secret_sealed` text;