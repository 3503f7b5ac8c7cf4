CREATE TABLE `price_reports` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`item` text NOT NULL,
	`item_key` text NOT NULL,
	`unit` text NOT NULL,
	`price_ngn` integer NOT NULL,
	`market` text NOT NULL,
	`market_key` text NOT NULL,
	`town` text,
	`channel` text NOT NULL,
	`settled` integer DEFAULT false NOT NULL,
	`reported_at` integer DEFAULT (unixepoch() * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `price_reports_item_idx` ON `price_reports` (`item_key`,`reported_at`);--> statement-breakpoint
CREATE INDEX `price_reports_user_idx` ON `price_reports` (`user_id`,`reported_at`);--> statement-breakpoint
CREATE INDEX `price_reports_time_idx` ON `price_reports` (`reported_at`);--> statement-breakpoint
-- The market-prices article says what the answers are now (docs/decisions/068-market-prices-people-report.md), unless staff edited it.
UPDATE blog_articles SET content = 'An illustrative example, not a real user''s story. Before a long trip to market, a farmer wants to know one thing: what will my maize fetch today? With LinkUp, ''@ai market maize kano'' in chat or on WhatsApp, or on a basic phone the USSD menu''s Market prices, then the item and the town, answers with the median of the prices people reported there in the last 14 days, how many reports it counts and their dates; a price far from the others is left out. Until three people have reported one, LinkUp says it has no recent price. Traders who see a price report it, with PRICE maize bag 45000 Dawanau on WhatsApp, Report a price on the USSD menu or the Market prices page, and earn points for it.' WHERE id = 'market-prices-by-text' AND content = 'An illustrative example, not a real user''s story. Before a long trip to market, a farmer wants to know one thing: what will my maize fetch today? With LinkUp, ''@ai market maize kano'' in chat or on WhatsApp, or on a basic phone the USSD menu''s Market prices, then the item and the town, answers with the latest price LinkUp has, its source and the day it was seen. A price older than 30 days is not quoted, and where there is none LinkUp says it has no recent price.';
