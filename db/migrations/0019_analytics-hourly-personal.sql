CREATE TABLE `analytics_hourly` (
	`hour` text NOT NULL,
	`kind` text NOT NULL,
	`area` text DEFAULT '' NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`hour`, `kind`, `area`)
);
--> statement-breakpoint
CREATE TABLE `analytics_personal` (
	`user_id` text NOT NULL,
	`hour` text NOT NULL,
	`kind` text NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`user_id`, `hour`, `kind`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
