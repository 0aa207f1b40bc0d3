// One table per option run (rows: corpus files), then how many files met the run's goal.
import type { FileBench } from "./bench-file.ts";
import { OPTION_RUNS } from "./option-runs.ts";
import type { OptionOutcome } from "./option-runs.ts";
import { header, ms, row } from "./print-table.ts";
import type { Column } from "./print-table.ts";

export interface FileOptionOutcomes {
  file: FileBench;
  outcomes: OptionOutcome[];
}

export function printOptionRuns(results: FileOptionOutcomes[]): void {
  OPTION_RUNS.forEach((run, index) => {
    console.log(`\nOurs with ${run.name} (issue 7): ${run.description}`);
    const columns: Column[] = [{ header: "  file", width: 32, align: "left" }, ...run.columns, { header: "ms", width: 7 }, { header: "note", width: 0, align: "left" }];
    console.log(header(columns));
    let ran = 0;
    let met = 0;
    for (const { file, outcomes } of results) {
      const outcome = outcomes[index]!;
      const cells = outcome.cells ?? run.columns.map(() => "-");
      console.log(row(columns, [`  ${file.file.name}`, ...cells, outcome.cells === null ? "-" : ms(outcome.ms), outcome.note.slice(0, 110)]));
      if (outcome.cells !== null) ran++;
      if (outcome.met) met++;
    }
    const time = results.reduce((sum, { outcomes }) => sum + outcomes[index]!.ms, 0);
    console.log(`  ${run.goal}: ${met} of ${ran} files run (${ms(time)} ms in all)`);
  });
}
