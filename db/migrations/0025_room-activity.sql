CREATE TABLE `room_activity` (
	`room_id` text PRIMARY KEY NOT NULL,
	`last_message_at` integer,
	`messages` integer DEFAULT 0 NOT NULL,
	`epoch` integer DEFAULT 0 NOT NULL,
	`counted_seq` integer DEFAULT 0 NOT NULL,
	`updated_at` integer DEFAULT (unixepoch() * 1000) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `room_presence` (
	`room_id` text NOT NULL,
	`user_id` text NOT NULL,
	`sockets` integer NOT NULL,
	PRIMARY KEY(`room_id`, `user_id`)
);
--> statement-breakpoint
CREATE INDEX `room_presence_user_idx` ON `room_presence` (`user_id`);