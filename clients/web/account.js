// @ts-check
// The player's account: the session token remembered with the server that issued it
// (net.js sends it in `hello`, so that seats taken at the table are the account's), and
// signing up, in and out, and changing the password on the players page (PROTOCOL.md,
// "Accounts").

import { saved } from "./dom.js";

/** The remembered account ({server, token, id, name}) if `url` issued it, else null. */
export function accountFor(url) {
  const account = saved.get("account");
  return account && account.server === url && account.token ? account : null;
}

export function storeAccount(url, signedIn) {
  saved.set("account", { server: url, token: signedIn.token, id: signedIn.account.id, name: signedIn.account.name });
}

export function forgetAccount() {
  saved.set("account", null);
}

/** Sign up or in (`kind`) on `net` (a net.js Connection); the account is remembered. */
export async function signIn(net, kind, name, password) {
  const answer = await net.request({ type: kind, name, password }, ["signed_in"]);
  storeAccount(net.url, answer);
  return answer;
}

/** A new password for the signed-in account; its other sessions end (this one stays). */
export async function changePassword(net, oldPassword, newPassword) {
  await net.request({ type: "change_password", old_password: oldPassword, new_password: newPassword }, ["password_changed"]);
}

export async function signOut(net) {
  try {
    await net.request({ type: "sign_out" }, ["signed_out"]);
  } finally {
    forgetAccount();
  }
}
