// '@ai ' messages in the chat go to the assistant's client (web/app/features/assistant, owned by the
// assistant area); when it cannot answer, the chat shows the 'LIA Assistant' help message.
export { type AssistantAnswer, askAssistant as ask } from "../assistant/client";
export { liaHelpMessage as helpMessage } from "../assistant/lia-help";
