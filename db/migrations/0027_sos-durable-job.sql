CREATE TABLE `sos_dead_letters` (
	`id` text PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL,
	`broadcast_id` text,
	`body` text NOT NULL,
	`attempts` integer NOT NULL,
	`received_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	`replayed_at` integer,
	`replayed_by` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sos_dead_letters_message_unique` ON `sos_dead_letters` (`message_id`);--> statement-breakpoint
CREATE INDEX `sos_dead_letters_open_idx` ON `sos_dead_letters` (`replayed_at`,`received_at`);--> statement-breakpoint
CREATE TABLE `sos_steps` (
	`broadcast_id` text NOT NULL,
	`step` text NOT NULL,
	`state` text NOT NULL,
	`result` text,
	`at` integer NOT NULL,
	PRIMARY KEY(`broadcast_id`, `step`),
	FOREIGN KEY (`broadcast_id`) REFERENCES `emergency_broadcasts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `emergency_broadcasts` ADD `job_done_at` integer;--> statement-breakpoint
CREATE INDEX `emergency_job_unfinished_idx` ON `emergency_broadcasts` (`job_done_at`,`broadcasted_at`);--> statement-breakpoint
CREATE INDEX `users_area_presence_idx` ON `users` (`geohash`,`location_updated_at`,`id`);--> statement-breakpoint
-- SOS sent before jobs were recorded ran in one request: they are not resumed (decision 054).
UPDATE `emergency_broadcasts` SET `job_done_at` = `broadcasted_at` WHERE `job_done_at` IS NULL;--> statement-breakpoint
-- An SOS pages an area by presence; a person placed in an area has a presence time.
UPDATE `users` SET `location_updated_at` = `updated_at` WHERE `geohash` IS NOT NULL AND `location_updated_at` IS NULL;
