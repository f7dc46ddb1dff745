// @ts-check
// The table chat's and quick play's strings in English, by key: i18n.js adds them to
// strings-en.js's.

export default {
  "quick.play": "Play with people",
  "quick.mode": "Game",
  "quick.casual": "Casual",
  "quick.rated": "Rated",
  "quick.ratedSignIn": "Rated (sign in)",
  "quick.count": "{n} searching",
  "quick.hint": "Strangers near your level; AI fill in after a minute.",
  "quick.searching": "Searching for players… {n} searching.",
  "quick.waited": "Waited {time}",
  "quick.cancel": "Cancel",
  "quick.playNow": "Play now against AI",
  "quick.found": "Table found: {humans} players and {ai} AI. Ready?",
  "quick.ready": "I'm ready",
  "quick.readyIn": "{n} s to confirm",
  "quick.othersIn": "Waiting for the others… {n} s",
  "quick.penalty": "You left tables before their end: you may play again in {n} s.",
  "quick.ended.lost": "The connection was lost: you left the queue. Play again when ready.",
  "quick.ended.not_ready": "You did not confirm in time: you left the queue.",
  "chat.title": "Chat",
  "chat.send": "Send",
  "chat.placeholder": "Say something (140 characters)",
  "chat.presetsOnly": "During a deal, players send the phrases above only.",
  "chat.spectatorsOnly": "spectators",
  "chat.mute": "Mute",
  "chat.block": "Block",
  "chat.report": "Report",
  "chat.actions": "Mute, block or report {name}",
  "chat.reported": "Reported: thank you.",
};
