ALTER TABLE `files` ADD `fed_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The file index moves into each account's shard (workers/files/shard-files.ts): this table
-- becomes the report the shards feed, each row under the change it reflects.
