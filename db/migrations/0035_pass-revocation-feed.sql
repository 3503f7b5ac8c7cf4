CREATE TABLE `pass_revocations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`session_id` text,
	`user_id` text,
	`at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `pass_revocations_at_idx` ON `pass_revocations` (`at`);--> statement-breakpoint
-- Custom SQL (docs/decisions/079-a-pass-that-lasts-the-day.md): every way a session ends before its time writes the
-- feed, whichever code path ends it (sign-out, sign-out of other devices, ending one session, panic, a ban, account
-- deletion by cascade), but not an expired session pruned by the Cron (a pass never outlives its session).
CREATE TRIGGER `pass_revocations_session_ended` AFTER DELETE ON `sessions`
WHEN old.second_factor_pending = 0 AND old.expires_at > unixepoch() * 1000
BEGIN
	INSERT INTO `pass_revocations` (`session_id`, `at`) VALUES (old.id, unixepoch() * 1000);
END;
--> statement-breakpoint
-- A session moved to another person (a sign-in that proves an already-known phone): its old passes name the old one.
CREATE TRIGGER `pass_revocations_session_moved` AFTER UPDATE OF `user_id` ON `sessions`
WHEN old.user_id IS NOT new.user_id
BEGIN
	INSERT INTO `pass_revocations` (`session_id`, `at`) VALUES (old.id, unixepoch() * 1000);
END;
--> statement-breakpoint
-- What a socket upgrade takes from the pass's row: the shown name, anonymous mode, and what decides rights anywhere.
CREATE TRIGGER `pass_revocations_person_changed` AFTER UPDATE OF `nickname`, `anonymous_mode`, `auth_mode`, `role`, `banned_at` ON `users`
WHEN old.nickname IS NOT new.nickname OR old.anonymous_mode IS NOT new.anonymous_mode OR old.auth_mode IS NOT new.auth_mode
	OR old.role IS NOT new.role OR old.banned_at IS NOT new.banned_at
BEGIN
	INSERT INTO `pass_revocations` (`user_id`, `at`) VALUES (new.id, unixepoch() * 1000);
END;
