CREATE INDEX `files_uploading_idx` ON `files` (`created_at`) WHERE "files"."state" = 'uploading';--> statement-breakpoint
CREATE INDEX `mesh_connections_closed_idx` ON `mesh_connections` (`is_active`,`disconnected_at`);--> statement-breakpoint
CREATE INDEX `notifications_created_idx` ON `notifications` (`created_at`);--> statement-breakpoint
CREATE INDEX `security_events_created_idx` ON `security_events` (`created_at`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);