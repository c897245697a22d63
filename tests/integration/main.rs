//! The integration tests, as one test binary: one module per area, and the helpers they share in
//! `common`.

mod common;

mod checkpoint;
mod cli_ab;
mod cli_bad_input;
mod cli_combine;
mod cli_compare;
mod cli_domains;
mod cli_fsm;
mod cli_hostile;
mod cli_ksolve;
mod cli_pdb;
mod cli_plot;
mod cli_repeat;
mod cli_run;
mod cli_select;
mod cli_shards;
mod cli_solve;
mod cli_text;
mod cli_tree;
mod costs;
mod counts_agree;
mod csv_in_pandas;
mod fsm;
mod generate_golden;
mod layering;
mod lookups;
mod max;
mod report_html;
mod split;
mod why_columns;
