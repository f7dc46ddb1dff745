// @ts-check
// The table chat's and quick play's strings in French, by key: i18n.js adds them to
// strings-fr.js's.

export default {
  "quick.play": "Jouer avec d'autres",
  "quick.mode": "Partie",
  "quick.casual": "Amicale",
  "quick.rated": "Classée",
  "quick.ratedSignIn": "Classée (connectez-vous)",
  "quick.count": "{n} en recherche",
  "quick.hint": "Des joueurs de votre niveau ; des IA complètent après une minute.",
  "quick.searching": "Recherche de joueurs… {n} en recherche.",
  "quick.waited": "Attente : {time}",
  "quick.cancel": "Annuler",
  "quick.playNow": "Jouer tout de suite contre des IA",
  "quick.found": "Table trouvée : {humans} joueurs et {ai} IA. Prêt ?",
  "quick.ready": "Je suis prêt",
  "quick.readyIn": "{n} s pour confirmer",
  "quick.othersIn": "En attente des autres… {n} s",
  "quick.penalty": "Vous avez quitté des tables avant la fin : vous pourrez rejouer dans {n} s.",
  "quick.ended.lost": "La connexion a été perdue : vous avez quitté la file. Rejouez quand vous voulez.",
  "quick.ended.not_ready": "Vous n'avez pas confirmé à temps : vous avez quitté la file.",
  "chat.title": "Discussion",
  "chat.send": "Envoyer",
  "chat.placeholder": "Écrire un message (140 caractères)",
  "chat.presetsOnly": "Pendant une donne, les joueurs n’envoient que les phrases ci-dessus.",
  "chat.spectatorsOnly": "spectateurs",
  "chat.mute": "Masquer",
  "chat.block": "Bloquer",
  "chat.report": "Signaler",
  "chat.actions": "Masquer, bloquer ou signaler {name}",
  "chat.reported": "Signalé : merci.",
};
