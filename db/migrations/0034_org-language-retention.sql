ALTER TABLE `orgs` ADD `language` text;--> statement-breakpoint
ALTER TABLE `orgs` ADD `retention` text DEFAULT 'never' NOT NULL;