/**
 * A ninth day of commands, written before the guard ran from ground no earlier corpus drew on:
 * community cheat sheets — cheat/cheatsheets (one file per tool), the navi .cheat files of
 * denisidoro/cheats and the collections it features, the shell blocks of rstacruz/cheatsheets
 * (devhints) — with their placeholders filled by this project's files, localhost, a feature branch
 * (test/fixtures/safety/everyday-unseen7.txt, grouped by sheet). Only the infra family may ask (a
 * change to live infrastructure is a person's to decide). The lines that are truly dangerous in
 * this context (root, system settings, secrets, publishing, disks, the machine stopped) are not in
 * it; the false alarms it found are falsealarm9.test.ts's.
 */
import { testEverydayCorpus } from './context.ts';

testEverydayCorpus('everyday-unseen7.txt', { name: 'the seventh unseen corpus', atLeast: 2750, infraAsks: true });
