CREATE TABLE `purged_derivatives` (
	`account_id` text NOT NULL,
	`file_id` text NOT NULL,
	`canonical` text NOT NULL,
	`format_class` text NOT NULL,
	`purged_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `file_id`, `canonical`, `format_class`)
);
