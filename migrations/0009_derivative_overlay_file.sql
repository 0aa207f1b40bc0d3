ALTER TABLE `derivatives` ADD `overlay_file_id` text;--> statement-breakpoint
CREATE INDEX `derivatives_overlay` ON `derivatives` (`overlay_file_id`);