CREATE TABLE `analytics_daily` (
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`area` text DEFAULT '' NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `kind`, `area`)
);
--> statement-breakpoint
ALTER TABLE `market_prices` ADD `source` text DEFAULT 'LinkUp reference figure' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `banned_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `ban_reason` text;