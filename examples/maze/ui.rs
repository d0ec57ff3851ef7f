//! The on-screen panel: chasers, FPS, pathing time, requests served and waiting.

use bevy::diagnostic::{DiagnosticPath, DiagnosticsStore, FrameTimeDiagnosticsPlugin};
use bevy::prelude::*;
use bevy_tilepath::prelude::*;

use crate::simulation::{CHASERS_PER_PRESS, Chaser, Score};

#[derive(Component)]
pub(crate) struct Panel;

pub(crate) fn spawn_panel(mut commands: Commands) {
    commands.spawn((
        Panel,
        Text::new("tilepath maze"),
        TextFont {
            font_size: FontSize::Px(17.0),
            ..default()
        },
        TextColor(Color::srgb(0.92, 0.9, 0.85)),
        Node {
            position_type: PositionType::Absolute,
            top: Val::Px(14.0),
            left: Val::Px(14.0),
            width: Val::Px(280.0),
            padding: UiRect::all(Val::Px(10.0)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.55)),
    ));
}

pub(crate) fn update_panel(
    mut panel: Query<&mut Text, With<Panel>>,
    store: Res<DiagnosticsStore>,
    pathing: Res<PathingDiagnostics>,
    score: Res<Score>,
    chasers: Query<(), With<Chaser>>,
    debug: Option<Res<PathingDebug>>,
) {
    let Ok(mut text) = panel.single_mut() else {
        return;
    };
    let smoothed =
        |path: &DiagnosticPath| store.get(path).and_then(|d| d.smoothed()).unwrap_or(0.0);
    let fps = smoothed(&FrameTimeDiagnosticsPlugin::FPS);
    let ms = smoothed(&PathingDiagnostics::PATH_TIME_MS);
    let served = smoothed(&PathingDiagnostics::PATH_SERVED);
    let gizmos = debug.is_some_and(|d| d.enabled);
    **text = format!(
        "tilepath maze\n\n\
         chasers alive   {}\n\
         caught          {}\n\
         FPS             {fps:.0}\n\
         pathing / tick  {ms:.2} ms\n\
         served / tick   {served:.0}\n\
         waiting         {}\n\
         crowd waiting   {}\n\
         fields built    {}\n\n\
         arrows/WASD move\n\
         Space  +{CHASERS_PER_PRESS} chasers\n\
         click  toggle a wall\n\
         R      new maze\n\
         G      path gizmos ({})",
        chasers.iter().count(),
        score.caught,
        pathing.waiting,
        pathing.crowd_waiting,
        pathing.fields_built,
        if gizmos { "on" } else { "off" },
    );
}
