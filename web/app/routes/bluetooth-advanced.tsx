import { Link } from "react-router";
import { BluetoothPanel } from "../features/chat/bluetooth-panel";
import type { Route } from "./+types/bluetooth-advanced";

export const meta: Route.MetaFunction = () => [{ title: "Bluetooth · LinkUp" }];

export default function BluetoothAdvanced() {
  return (
    <div className="stack">
      <section className="card">
        <h1>Bluetooth and the LinkUp mesh</h1>
        <p>
          LinkUp's mesh has three ways to move a message: the LinkUp relay over any internet connection, the local mesh between tabs and
          windows on this device (one tab with a connection relays for the others), and Bluetooth where the device allows it.
        </p>
        <ul>
          <li>
            <strong>Relay:</strong> each room keeps recent messages, so a phone that was away gets what it missed when it reconnects.
          </li>
          <li>
            <strong>Local mesh:</strong> a tab without internet hands its messages to a tab that has it; every hop is recorded on the
            message.
          </li>
          <li>
            <strong>Bluetooth:</strong> a browser can scan for devices below, but it cannot carry chat between phones.
          </li>
        </ul>
        <noscript>
          <p>Scanning for Bluetooth devices needs JavaScript.</p>
        </noscript>
      </section>
      <BluetoothPanel title="Scan for Bluetooth devices" />
      <p>
        <Link to="/mesh-network">See who is on the mesh near you</Link>
      </p>
    </div>
  );
}
