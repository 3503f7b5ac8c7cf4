ALTER TABLE `device_keys` ADD `signing_key` text;--> statement-breakpoint
ALTER TABLE `device_keys` ADD `signature` text;