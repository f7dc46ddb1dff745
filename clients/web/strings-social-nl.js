// @ts-check
// The table chat's and quick play's strings in Dutch, by key: i18n.js adds them to
// strings-nl.js's.

export default {
  "quick.play": "Spelen met anderen",
  "quick.mode": "Partij",
  "quick.casual": "Vriendschappelijk",
  "quick.rated": "Met rating",
  "quick.ratedSignIn": "Met rating (log in)",
  "quick.count": "{n} zoeken",
  "quick.hint": "Spelers van jouw niveau; na een minuut vult de AI aan.",
  "quick.searching": "Spelers zoeken… {n} zoeken mee.",
  "quick.waited": "Gewacht: {time}",
  "quick.cancel": "Annuleren",
  "quick.playNow": "Nu spelen tegen AI",
  "quick.found": "Tafel gevonden: {humans} spelers en {ai} AI. Klaar?",
  "quick.ready": "Ik ben klaar",
  "quick.readyIn": "{n} s om te bevestigen",
  "quick.othersIn": "Wachten op de anderen… {n} s",
  "quick.penalty": "Je verliet tafels voor het einde: je kunt weer spelen over {n} s.",
  "quick.ended.lost": "De verbinding viel weg: je bent uit de wachtrij. Speel opnieuw wanneer je wilt.",
  "quick.ended.not_ready": "Je bevestigde niet op tijd: je bent uit de wachtrij.",
  "chat.title": "Chat",
  "chat.send": "Versturen",
  "chat.placeholder": "Zeg iets (140 tekens)",
  "chat.presetsOnly": "Tijdens een spel sturen spelers alleen de zinnen hierboven.",
  "chat.spectatorsOnly": "kijkers",
  "chat.mute": "Dempen",
  "chat.block": "Blokkeren",
  "chat.report": "Melden",
  "chat.actions": "{name} dempen, blokkeren of melden",
  "chat.reported": "Gemeld: bedankt.",
};
