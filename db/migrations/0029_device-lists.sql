CREATE TABLE `device_lists` (
	`user_id` text PRIMARY KEY NOT NULL,
	`account_key` text NOT NULL,
	`version` integer NOT NULL,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
