import { testHoles } from './context.ts';

/**
 * What the sixth fresh battery's writer found the guard let through: strings git hands a shell,
 * a crontab replaced from stdin, fork bombs, block devices written by tools the guard did not
 * know, the system's essential packages removed: [an everyday command, its dangerous neighbour].
 * The context is context.ts's: the project /home/u/proj on main, home /home/u.
 */
testHoles({
  // a bare crontab (no file, no -l/-e/-r) reads the new table from stdin, as `crontab -` does (system-services.ts)
  'a crontab replaced from stdin': [
    ['crontab -l', 'crontab < /dev/null'],
    ['crontab -l | grep backup', "echo '* * * * * x' | crontab"],
    ['crontab -e', "crontab <<< ''"],
    ['crontab -l -u u', 'crontab -u u < /tmp/c'],
    ['crontab -l > /tmp/cron.bak', 'crontab'],
  ],
});
