CREATE TABLE `pending_top_ups` (
	`account_id` text NOT NULL,
	`reference` text NOT NULL,
	`micros` integer NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `reference`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "top_up_positive" CHECK("pending_top_ups"."micros" > 0)
);
--> statement-breakpoint
ALTER TABLE `accounts` ADD `ledger_fed_seq` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The balance and the ledger move into each account's shard (workers/shards/account-shard.ts):
-- this ledger becomes the shared report the shards feed, and the balance here the last one fed,
-- so a fed row must not move it again.
DROP TRIGGER `ledger_debit`;
