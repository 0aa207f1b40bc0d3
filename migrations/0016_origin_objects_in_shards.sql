ALTER TABLE `origin_objects` ADD `fed_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Origins and their paths move into each account's file shard (workers/origins/shard-origins.ts):
-- origin_objects becomes the report the shards feed, each row under the change it reflects.
