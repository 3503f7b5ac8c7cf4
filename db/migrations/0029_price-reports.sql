CREATE TABLE `price_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`item` text NOT NULL,
	`item_key` text NOT NULL,
	`unit` text NOT NULL,
	`price_ngn` integer NOT NULL,
	`market` text NOT NULL,
	`market_key` text NOT NULL,
	`town` text,
	`channel` text NOT NULL,
	`settled` integer DEFAULT false NOT NULL,
	`reported_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `price_reports_item_idx` ON `price_reports` (`item_key`,`reported_at`);--> statement-breakpoint
CREATE INDEX `price_reports_user_idx` ON `price_reports` (`user_id`,`reported_at`);--> statement-breakpoint
CREATE INDEX `price_reports_time_idx` ON `price_reports` (`reported_at`);