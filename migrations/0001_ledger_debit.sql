-- Every ledger row moves the balance by its amount (top-ups are negative amounts), in the same
-- statement as the insert: a charge and its debit cannot be separated, and the CHECK on
-- accounts.balance_micros aborts the insert when it would overdraw.
CREATE TRIGGER `ledger_debit` AFTER INSERT ON `ledger`
BEGIN
  UPDATE `accounts` SET `balance_micros` = `balance_micros` - NEW.`amount_micros` WHERE `id` = NEW.`account_id`;
END;
