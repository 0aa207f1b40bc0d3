-- A job's progress is units done of a total (items of a batch, stages otherwise), not a percent.
ALTER TABLE `jobs` ADD `progress_done` integer;--> statement-breakpoint
ALTER TABLE `jobs` ADD `progress_total` integer;--> statement-breakpoint
ALTER TABLE `jobs` DROP COLUMN `progress`;
