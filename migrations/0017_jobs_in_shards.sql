ALTER TABLE `jobs` ADD `delivered` text;--> statement-breakpoint
ALTER TABLE `jobs` ADD `fed_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Jobs and their webhook attempts move into each account's shard (workers/jobs/shard-jobs.ts):
-- these tables become the report the shards feed, each job's row under the change it reflects.
-- A fed row keeps no request or result ('{}' and null): `delivered` is what the books read.
