CREATE TABLE `user_devices` (
	`device_id` text NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`device_id`, `user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_devices_user_idx` ON `user_devices` (`user_id`);--> statement-breakpoint
ALTER TABLE `support_tickets` ADD `subject_id` text REFERENCES users(id);