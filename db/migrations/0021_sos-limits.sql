ALTER TABLE `emergency_broadcasts` ADD `address_key` text;--> statement-breakpoint
ALTER TABLE `emergency_broadcasts` ADD `far_area` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `emergency_user_time_idx` ON `emergency_broadcasts` (`user_id`,`broadcasted_at`);--> statement-breakpoint
CREATE INDEX `emergency_address_time_idx` ON `emergency_broadcasts` (`address_key`,`broadcasted_at`);