CREATE TABLE `area_shards` (
	`prefix` text PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `away_rooms` (
	`user_id` text NOT NULL,
	`room_id` text NOT NULL,
	`shard` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	PRIMARY KEY(`user_id`, `room_id`)
);
--> statement-breakpoint
CREATE TABLE `person_copies` (
	`user_id` text PRIMARY KEY NOT NULL,
	`home_shard` integer NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `person_directory` (
	`user_id` text PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL,
	`phone` text,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `person_directory_phone_unique` ON `person_directory` (`phone`);--> statement-breakpoint
CREATE TABLE `room_shards` (
	`room_id` text PRIMARY KEY NOT NULL,
	`shard` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
