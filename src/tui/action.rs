//! What a key or a click asks for: the `Action` the keymap's table
//! (`keymap.rs`) gives and `update` carries out (docs/decisions.md C4). A
//! leaf, so that the keymap, the reader thread's view of the keyboard
//! (`input.rs`) and `update` can all name actions without one importing
//! another.

use super::state::Pane;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Step,
    StepOver,
    StepOut,
    Continue,
    RunToTrap,
    StepBack,
    ReverseContinue,
    /// `r`: back to the start (where the lesson is).
    Restart,
    /// `R`: back to power-on.
    Reset,
    SwitchVariant,
    ToggleBreakpoint,
    ToggleDisasm,
    ToggleVector,
    /// Bring the next shared pane forward (the compact layout).
    NextTab,
    CycleFilter,
    NextPane,
    Focus(Pane),
    ScrollUp,
    ScrollDown,
    /// Left / Right: the focused pane's columns past its edge.
    PanLeft,
    PanRight,
    /// PgUp / PgDn: a page in the focused pane.
    PageUp,
    PageDown,
    /// `D`: the path diff view.
    ToggleDiff,
    /// Enter: the source of the diff's selected line.
    DiffJump,
    Help,
    /// Space: play the next script step.
    Advance,
    CommandStart,
    /// `/`: the search prompt; `]`/`[` the next and previous match.
    SearchStart,
    SearchNext,
    SearchPrev,
    Input(char),
    Backspace,
    Submit,
    Cancel,
    Quit,
    /// Ctrl-Z where nobody could continue a stopped TUI (`signals.rs`;
    /// where one can, the reader thread stops the process itself).
    Suspend,
}
