CREATE TABLE `analytics_daily` (
	`day` text NOT NULL,
	`kind` text NOT NULL,
	`area` text DEFAULT '' NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`day`, `kind`, `area`)
);
