-- Premium has no 24/7 emergency staff; the FAQ says what is true (docs/decisions/018-billing.md).
UPDATE faq_entries SET answer = 'Monday to Friday 8:00-20:00 WAT, Saturday 9:00-18:00 and Sunday 10:00-16:00. Premium users'' call-back requests are answered first.' WHERE id = 'faq-9';
