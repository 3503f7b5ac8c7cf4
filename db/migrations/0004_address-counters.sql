CREATE TABLE `address_counters` (
	`key` text NOT NULL,
	`window` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`key`, `window`)
);
--> statement-breakpoint
CREATE INDEX `address_counters_expires_idx` ON `address_counters` (`expires_at`);