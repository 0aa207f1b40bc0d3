ALTER TABLE `derivatives` ADD `fed_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `derivatives` ADD `dropped_at` integer;--> statement-breakpoint
-- The derivative index moves into each account's shard (workers/derivatives/shard-derivatives.ts):
-- this table becomes the report the shards feed, each row under the change it reflects.
CREATE INDEX `derivatives_dropped` ON `derivatives` (`dropped_at`) WHERE `dropped_at` IS NOT NULL;
