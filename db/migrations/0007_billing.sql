CREATE TABLE `billing_customers` (
	`user_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `billing_customers_customer_id_unique` ON `billing_customers` (`customer_id`);--> statement-breakpoint
CREATE TABLE `trial_claims` (
	`phone` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `source` text DEFAULT 'stripe' NOT NULL;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `price_id` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `pending_price_id` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `trial_ends_at` integer;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `cancel_at_period_end` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `grace_ends_at` integer;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `last_event_at` integer;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `reminder_sent_at` integer;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `ended_notice_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `tier_expires_at` integer;