// Account: the balance, the last 30 days of usage and spend by operation, and the keys. Loaded
// each time the section is opened, so it shows what the calls made meanwhile cost.
import { useEffect, useState } from "preact/hooks";
import { operations } from "../../contracts/operations.ts";
import type { ApiClient } from "../api/api-client.ts";
import { asProblem, type ApiProblem } from "../api/api-problem.ts";
import type { Account, Usage } from "../api/types.ts";
import { html } from "../html.ts";
import { Busy } from "../ui/busy.ts";
import { formatCost } from "../ui/format.ts";
import { ProblemView } from "../ui/problem-view.ts";
import { KeysPanel } from "./keys-panel.ts";
import { monthUsageLine } from "./usage-summary.ts";
import { UsageChart, UsageLegend, UsageTable } from "./usage-chart.ts";
import { daysEnding, usageSeries, type DayOperationRow, type UsageSeries } from "./usage-series.ts";

const PERIOD_DAYS = 30;

type Loaded = { state: "loading" } | { state: "failed"; problem: ApiProblem } | { state: "done"; account: Account; series: UsageSeries };

async function loadAccount(api: ApiClient): Promise<{ account: Account; series: UsageSeries }> {
  const days = daysEnding(new Date().toISOString().slice(0, 10), PERIOD_DAYS);
  const [account, usage] = await Promise.all([
    api.get<Account>("/v1/account"),
    api.get<Usage>(`/v1/usage?from=${days[0]}&to=${days.at(-1)}&group_by=day_operation`),
  ]);
  const rows = usage.data.filter((row): row is DayOperationRow => "day" in row && "operation" in row);
  return { account, series: usageSeries(rows, days, operations) };
}

export function AccountPanel({ api, active }: { api: ApiClient; active: boolean }) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  useEffect(() => {
    if (!active) return;
    setLoaded({ state: "loading" });
    loadAccount(api).then(
      (data) => setLoaded({ state: "done", ...data }),
      (error) => setLoaded({ state: "failed", problem: asProblem(error) }),
    );
  }, [api, active]);
  return html`<section class="panel" hidden=${!active} aria-labelledby="account-heading">
    <h2 id="account-heading">Account</h2>
    ${loaded.state === "loading" ? html`<${Busy} label="Loading the account" />` : null}
    ${loaded.state === "failed" ? html`<${ProblemView} problem=${loaded.problem} />` : null}
    ${loaded.state === "done"
      ? html`
          <dl class="facts">
            <div><dt>Account</dt><dd>${loaded.account.name} (${loaded.account.plan})</dd></div>
            <div><dt>Balance</dt><dd id="balance">${formatCost(loaded.account.balance_micros)}</dd></div>
            <div><dt>This month</dt><dd id="month-usage">${monthUsageLine(loaded.account.usage.by_operation, loaded.account.usage.micros)}</dd></div>
          </dl>
          <h3>Last ${PERIOD_DAYS} days</h3>
          <${UsageLegend} series=${loaded.series} />
          <div class="charts">
            <${UsageChart} id="usage-spend" title="Spend per day by operation" series=${loaded.series} measure="micros" />
            <${UsageChart} id="usage-count" title="Calls per day by operation" series=${loaded.series} measure="count" />
          </div>
          <${UsageTable} series=${loaded.series} />
        `
      : null}
    ${active ? html`<${KeysPanel} api=${api} />` : null}
  </section>`;
}
