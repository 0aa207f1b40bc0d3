CREATE TABLE `account_branch_balances` (
	`account_id` text NOT NULL,
	`branch` integer NOT NULL,
	`balance_micros` integer NOT NULL,
	`ledger_fed_seq` integer NOT NULL,
	PRIMARY KEY(`account_id`, `branch`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE no action
);--> statement-breakpoint
-- Each branch of an account's shard (workers/billing/account-branches.ts) holds an allotment of the
-- account's money; the ledger feed reports what each holds here, beside accounts.balance_micros.
