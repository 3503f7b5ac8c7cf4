CREATE TABLE `device_prekeys` (
	`user_id` text NOT NULL,
	`device_id` text NOT NULL,
	`key_id` integer NOT NULL,
	`kind` text NOT NULL,
	`public_key` text NOT NULL,
	`signature` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `device_id`, `kind`, `key_id`),
	FOREIGN KEY (`user_id`,`device_id`) REFERENCES `device_keys`(`user_id`,`device_id`) ON UPDATE no action ON DELETE cascade
);
