CREATE TABLE `preset_derivatives` (
	`account_id` text NOT NULL,
	`preset_name` text NOT NULL,
	`file_id` text NOT NULL,
	`canonical` text NOT NULL,
	`format_class` text NOT NULL,
	`cache_url` text NOT NULL,
	PRIMARY KEY(`account_id`, `preset_name`, `file_id`, `canonical`, `format_class`)
);
--> statement-breakpoint
CREATE TABLE `presets` (
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`transform` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `name`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);
