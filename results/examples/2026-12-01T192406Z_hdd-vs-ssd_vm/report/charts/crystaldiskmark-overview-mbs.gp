# written by iomatrix report; re-plot with: gnuplot crystaldiskmark-overview-mbs.gp
set encoding utf8
set terminal svg size 920,440 fixed noenhanced font 'DejaVu Sans,12' background rgb 'white'
set output 'crystaldiskmark-overview-mbs.svg'
array C[2]
C[1] = '#0072B2'
C[2] = '#E69F00'
set title 'CrystalDiskMark-style overview: MB/s, read and write'
set datafile missing '?'
set border 3 lc rgb '#555555'
set tics nomirror
set grid ytics lc rgb '#dddddd' lt 1
set key outside top center horizontal noenhanced
unset title
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 noborder
set xtics scale 0 font ',9' noenhanced
set key autotitle columnhead
set ylabel 'MB/s (10^6 bytes/s)'
set bmargin 3
set ytics ('0' 0, '2k' 2000, '4k' 4000, '6k' 6000, '8k' 8000)
set yrange [0:8000]
set multiplot layout 1,2 title 'CrystalDiskMark-style overview: MB/s, read and write'
set xrange [-0.6:3.4]
plot 'crystaldiskmark-overview-mbs.dat' index 0 using (0):(0) with points ps 0 lc rgb '#ffffff' title columnhead(2), '' index 0 using 2:xtic(1) title 'read' lc rgb '#0072B2', '' index 0 using 3 title 'write' lc rgb '#D55E00', '' index 0 using ($0-1.0/6):2:(sprintf('%.0f', $2)) with labels offset 0,0.6 font ',8' notitle, '' index 0 using ($0+1.0/6):3:(sprintf('%.0f', $3)) with labels offset 0,0.6 font ',8' notitle
unset ylabel
set xrange [-0.6:3.4]
plot 'crystaldiskmark-overview-mbs.dat' index 1 using (0):(0) with points ps 0 lc rgb '#ffffff' title columnhead(2), '' index 1 using 2:xtic(1) title 'read' lc rgb '#0072B2', '' index 1 using 3 title 'write' lc rgb '#D55E00', '' index 1 using ($0-1.0/6):2:(sprintf('%.0f', $2)) with labels offset 0,0.6 font ',8' notitle, '' index 1 using ($0+1.0/6):3:(sprintf('%.0f', $3)) with labels offset 0,0.6 font ',8' notitle
unset multiplot
set terminal pngcairo size 920,440 noenhanced font 'DejaVu Sans,10' background rgb 'white'
set output 'crystaldiskmark-overview-mbs.png'
set multiplot layout 1,2 title 'CrystalDiskMark-style overview: MB/s, read and write'
set xrange [-0.6:3.4]
plot 'crystaldiskmark-overview-mbs.dat' index 0 using (0):(0) with points ps 0 lc rgb '#ffffff' title columnhead(2), '' index 0 using 2:xtic(1) title 'read' lc rgb '#0072B2', '' index 0 using 3 title 'write' lc rgb '#D55E00', '' index 0 using ($0-1.0/6):2:(sprintf('%.0f', $2)) with labels offset 0,0.6 font ',8' notitle, '' index 0 using ($0+1.0/6):3:(sprintf('%.0f', $3)) with labels offset 0,0.6 font ',8' notitle
unset ylabel
set xrange [-0.6:3.4]
plot 'crystaldiskmark-overview-mbs.dat' index 1 using (0):(0) with points ps 0 lc rgb '#ffffff' title columnhead(2), '' index 1 using 2:xtic(1) title 'read' lc rgb '#0072B2', '' index 1 using 3 title 'write' lc rgb '#D55E00', '' index 1 using ($0-1.0/6):2:(sprintf('%.0f', $2)) with labels offset 0,0.6 font ',8' notitle, '' index 1 using ($0+1.0/6):3:(sprintf('%.0f', $3)) with labels offset 0,0.6 font ',8' notitle
unset multiplot
set output
reset
