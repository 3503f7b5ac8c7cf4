-- The rooms are the record of their messages (docs/decisions/056-the-room-is-the-record-of-its-messages.md): each
-- room's last message time and count move to room_activity before the per-message rows go, so the chat list keeps
-- its order and the staff count its total.
INSERT INTO `room_activity` (`room_id`, `last_message_at`, `messages`)
SELECT `room_id`, max(`sent_at`), count(*) FROM `messages` GROUP BY `room_id`
ON CONFLICT (`room_id`) DO NOTHING;--> statement-breakpoint
DROP TABLE `mesh_connections`;--> statement-breakpoint
DROP TABLE `messages`;
