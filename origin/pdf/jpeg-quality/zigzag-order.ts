/**
 * ZIGZAG_TO_NATURAL[k] is the row-major (natural) index of the k-th coefficient
 * in JPEG zigzag order (ITU T.81 figure A.6). DQT segments store tables in zigzag
 * order; the published base tables (Annex K, libjpeg's jcparam.c) are row-major.
 * Built by walking the anti-diagonals so the order is derived, not transcribed.
 */
export const ZIGZAG_TO_NATURAL: readonly number[] = buildZigzagToNatural();

function buildZigzagToNatural(): number[] {
  const order: number[] = [];
  for (let diagonal = 0; diagonal < 15; diagonal++) {
    const rows: number[] = [];
    for (let row = Math.max(0, diagonal - 7); row <= Math.min(7, diagonal); row++) rows.push(row);
    // Even diagonals run bottom-left to top-right, odd ones top-right to bottom-left.
    if (diagonal % 2 === 0) rows.reverse();
    for (const row of rows) order.push(row * 8 + (diagonal - row));
  }
  return order;
}
