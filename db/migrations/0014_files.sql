CREATE TABLE `file_parts` (
	`file_id` text NOT NULL,
	`part_number` integer NOT NULL,
	`etag` text NOT NULL,
	PRIMARY KEY(`file_id`, `part_number`),
	FOREIGN KEY (`file_id`) REFERENCES `files`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `files` ADD `room_id` text;--> statement-breakpoint
ALTER TABLE `files` ADD `upload_id` text;--> statement-breakpoint
ALTER TABLE `files` ADD `state` text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE `files` ADD `part_count` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `files_room_idx` ON `files` (`room_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `usage_daily` ADD `file_transfers` integer DEFAULT 0 NOT NULL;