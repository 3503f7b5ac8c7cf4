CREATE TABLE `sos_deliveries` (
	`broadcast_id` text NOT NULL,
	`user_id` text NOT NULL,
	`notification_id` text,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 1 NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`broadcast_id`, `user_id`),
	FOREIGN KEY (`broadcast_id`) REFERENCES `emergency_broadcasts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
