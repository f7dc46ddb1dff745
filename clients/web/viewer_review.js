// @ts-check
// "Review this deal" in the deal viewer: the server's AI review of a stored deal
// (PROTOCOL.md, review_stored_deal), by its id, drawn as after a game (review.js): the
// progress, then each decision with its mark and the better choice, and the graph.

import { html } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { goTo, nextMarked, reviewHTML, reviewId, startReview } from "./review.js";

/** Ask the server for stored deal `deal`'s review; the review's state, running. */
export function askReview(net, deal) {
  const review = startReview(deal.deal_number + 1, deal.record); // numbered as the viewer's title
  net.send({ type: "review_stored_deal", table_id: deal.table_id, deal_number: deal.deal_number, id: reviewId(review.deal) });
  return review;
}

/** Who sat where, as review.js names seats (a table's summary; nobody is "you" here). */
function tableOf(deal) {
  const seats = [0, 1, 2, 3].map((seat) => {
    const who = deal.seats.find((s) => s.seat === seat);
    if (who && who.kind === "ai") return { occupant: "ai", name: "" };
    const named = who && (who.kind === "account" || who.kind === "guest");
    return { occupant: "human", name: named ? who.name : "" };
  });
  return { seat: null, summary: { seats } };
}

export function reviewButton() {
  return html`<p><button type="button" class="btn" data-action="review-stored">${t("review.open")}</button></p>`;
}

export function viewerReviewHTML(deal, review, face) {
  return reviewHTML(tableOf(deal), review, { lang: getLang(), face, back: t("viewer.reviewBack") });
}

/** The review's buttons and graph points: true when the click was one of them. */
export function onReviewClick(review, action, arg) {
  if (action === "review-step") goTo(review, Number(arg));
  else if (action === "review-prev") goTo(review, review.step - 1);
  else if (action === "review-next") goTo(review, review.step + 1);
  else if (action === "review-next-mark") goTo(review, nextMarked(review));
  else return false;
  return true;
}
