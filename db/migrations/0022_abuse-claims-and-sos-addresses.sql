CREATE TABLE `premium_claims` (
	`phone_hash` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`phone_hash`, `kind`)
);
--> statement-breakpoint
ALTER TABLE `emergency_broadcasts` ADD `address_hash` text;--> statement-breakpoint
ALTER TABLE `sos_responses` ADD `address_hash` text;