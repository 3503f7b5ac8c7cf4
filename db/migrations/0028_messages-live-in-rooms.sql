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
CREATE INDEX `room_presence_user_idx` ON `room_presence` (`user_id`);--> statement-breakpoint
-- The rooms are the record of their messages (docs/decisions/056-the-room-is-the-record-of-its-messages.md): each
-- room's last message time and count move to room_activity before the per-message rows go, so the chat list keeps
-- its order and the staff count its total.
INSERT INTO `room_activity` (`room_id`, `last_message_at`, `messages`)
SELECT `room_id`, max(`sent_at`), count(*) FROM `messages` GROUP BY `room_id`
ON CONFLICT (`room_id`) DO NOTHING;--> statement-breakpoint
DROP TABLE `mesh_connections`;--> statement-breakpoint
DROP TABLE `messages`;