ALTER TABLE `room_invitations` ADD `statement` text;--> statement-breakpoint
ALTER TABLE `room_members` ADD `invitation` text;