import { testHoles } from './context.ts';

/**
 * The user's data outside the project, the rest of it (home-data.ts, data-changes.ts): [an
 * everyday command, its dangerous neighbour]. The context is context.ts's: the project
 * /home/u/proj on main, home /home/u.
 */
testHoles({
  // a file of ~/Documents, ~/Desktop, ~/Pictures... at any depth, a document directly in the home: the user's own, removed one by one
  "the user's documents removed one by one": [
    ['rm ~/Downloads/installer.sh', 'rm ~/Documents/thesis.docx'],
    ['rm ~/Downloads/old.zip', 'unlink ~/Documents/thesis.docx'],
    ['rm ~/install.sh', 'rm ~/notes.txt'],
    ['rm ~/Downloads/*.zip', 'rm ~/Documents/*.docx'],
    ['rm -rf ~/Downloads/old-notes', 'rm -rf ~/Documents/old-notes'],
    ['rm ~/Documents/.DS_Store', 'rm ~/Desktop/todo.txt'],
    ['rm -rf ~/Documents/site/node_modules', 'rm -f ~/Pictures/2024/IMG_0001.jpg'],
    ['shred -u secret.txt', 'shred -n 3 -z ~/Documents/thesis.docx'],
    ['rimraf ~/Downloads/x', 'rimraf ~/Music/album'],
    ['gpg -c --batch --passphrase x notes.txt && rm notes.txt', 'gpg -c --batch --passphrase x ~/Documents/thesis.docx && rm ~/Documents/thesis.docx'],
    ['openssl enc -aes-256-cbc -k x -in a -out a.enc && rm a', 'openssl enc -aes-256-cbc -k x -in ~/Documents/a -out ~/Documents/a.enc && rm ~/Documents/a'],
    ['mv ~/Documents/a.txt ~/Desktop/', 'rm ~/Dropbox/plan.xlsx'],
  ],
  // emptied or written over with nothing: lost as surely as removed; writing content there may be the task
  "the user's documents emptied": [
    ['> app.log', '> ~/Documents/thesis.docx'],
    ['echo done > ~/Documents/summary.md', ': > ~/Documents/thesis.docx'],
    ['truncate -s 0 app.log', 'truncate -s 0 ~/Documents/*.docx'],
    ['cp /dev/null app.log', 'cp /dev/null ~/Documents/thesis.docx'],
    ['cp report.pdf ~/Documents/', 'cp /dev/null ~/Desktop/notes.md'],
    ['dd if=/dev/zero of=test/fixtures/zero.bin bs=1k count=1', 'dd if=/dev/zero of=/home/u/Documents/thesis.docx'],
    ['dd if=/dev/zero of=/tmp/x bs=1M count=1', 'dd if=/dev/zero of=~/Documents/thesis.docx'],
    ['sed -i d app.log', 'sed -i d ~/notes.txt'],
    ["sed -i 's/a/b/' ~/Documents/list.md", "sed -i '1,$d' ~/Documents/list.md"],
  ],
  // a disk mounted where the system mounts them, each folder directly in one; Windows' drives and home folders in WSL
  'mounted disks and backups': [
    ['rm -rf /tmp/x', 'rm -rf /mnt/backup'],
    ['rm -rf ./media', 'rm -rf /media/u/USB'],
    ['ls /run/media/u/USB', 'rm -rf /run/media/u/USB'],
    ['rm -rf /Volumes/X/build', 'rm -rf /Volumes/X'],
    ['rm -rf /mnt/backup/2024/old', 'rm -rf /mnt/backup/2024'],
    ['rm -f /mnt/swapfile', 'rm -rf /mnt'],
    ['rm -rf /mnt/c/Users/u/AppData/Local/Temp/x', 'rm -rf /mnt/c/Users/u/Documents'],
    ['rm -rf /mnt/c/Users/u/Downloads/x', 'rm -rf /mnt/c/Users/u'],
    ['rsync -a /media/u/USB/photos/ ./photos/', 'mv /media/u/USB/photos /tmp/'],
  ],
  // the apps' data in the home: keyrings, the trash, mail, browser profiles; the caches beside them pass
  "the apps' data in the home": [
    ['rm -rf ~/.cache/pip', 'rm -rf ~/.local/share'],
    ['rm -rf ~/.local/share/pnpm', 'rm -rf ~/.local/share/kwalletd'],
    ['rm -rf ~/.local/share/virtualenvs/x-1a2b', 'rm -rf ~/.local/share/Trash/*'],
    ['rm -rf ~/.local/share/containers', 'rm -rf ~/.local/share/evolution'],
    ['rm -rf ~/.npm/_cacache', 'rm -rf ~/.mozilla/firefox'],
    ['rm -rf ~/.mozilla/firefox/x.default/cache2', 'rm -rf ~/.thunderbird/x.default'],
    ['rm -rf ~/Library/Caches/x', 'rm -rf ~/Library/Messages'],
    ['rm -rf ~/Library/Developer/Xcode/DerivedData', 'rm -rf ~/Library/Mail'],
    ['rm -rf ~/Library/Containers/com.docker.docker', 'rm -rf ~/.Trash/*'],
  ],
  // recursive owner and permission changes of a folder the removal rule keeps: the old ones are recorded nowhere
  'recursive permission changes of the same folders': [
    ['chmod -R u+w ./build', 'chmod -R 000 ~/Documents'],
    ['chmod +x ~/bin/x', 'chmod -R a-w ~/Documents'],
    ['chown -R u ./dist', 'chown -R nobody ~/Documents'],
    ['chmod -R 755 ~/Documents/site', 'chmod -R 000 ../other-repo'],
    ['chmod -R u+w ~/Documents', 'chgrp -R nogroup ~/Pictures'],
    ['sudo chown -R $USER ~/projects/app', 'sudo chown -R root ~/projects/app'],
    ['chown -R $(whoami):staff ~/Documents', 'chmod -R 000 ~/Documents/*'],
  ],
  // what rsync sends is taken away from where it was: a move
  'rsync --remove-source-files as a move-away': [
    ['rsync -a --remove-source-files ./out/ /tmp/o/', 'rsync -a --remove-source-files ~/Documents/ /tmp/h/'],
    ['rsync -a ~/Documents/ /tmp/h/', 'rsync -av --remove-source-files ~/projects /tmp/p/'],
  ],
  // `rm -rf d/` through a link empties the folder it points at (`rm -rf d` removes the link alone)
  'a link the same line made, followed by a slash': [
    ['ln -s /home/u/Documents d; rm -rf d', 'ln -s /home/u/Documents d; rm -rf d/'],
    ['ln -s build/x latest; rm -rf latest/', 'ln -sfn ~/Documents d && rm -rf d/*'],
    ['ln -s /home/u/Documents d; ls d/', 'ln -s ../other-repo o; rm -rf o/'],
  ],
});
