// What to do while help is on the way, per emergency type. Plain first-aid and safety basics.
import type { EmergencyType } from "../../../../core/sos";

export const GUIDANCE: Record<EmergencyType, string[]> = {
  medical: [
    "Call 112 or 199 and say where you are.",
    "Check breathing. If the person is not breathing, start chest compressions: hard and fast in the centre of the chest.",
    "Press firmly on heavy bleeding with a clean cloth and keep pressing.",
    "Do not give food or drink to someone who is drowsy or unconscious.",
  ],
  fire: [
    "Get everyone out and stay out. Do not go back for belongings.",
    "Stay low under smoke. Feel doors for heat before opening them.",
    "Call 112 and give the exact address or landmark.",
    "Turn off gas cylinders only if it is safe to reach them.",
  ],
  security: [
    "Move to a safe place and lock the door if you can.",
    "Keep your phone on silent and share your location with people you trust.",
    "Call 112 when it is safe to speak. Do not confront armed people.",
  ],
  accident: [
    "Make the scene safe: hazard lights, warn traffic, switch off engines.",
    "Do not move injured people unless they are in danger where they are.",
    "Call 112 and report how many people are hurt.",
  ],
  flood: [
    "Move to higher ground now. Do not walk or drive through moving water.",
    "Switch off electricity at the mains if it is safe.",
    "Keep your phone charged and share your location.",
  ],
  other: [
    "Stay calm and move somewhere safe.",
    "Call 112 or 199 and explain what is happening and where.",
    "Keep your phone charged and your location shared.",
  ],
};
