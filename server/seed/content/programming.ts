/**
 * Subject 6, Visual Programming: three levels, from grades 1-3 (level 1: one script, a few
 * blocks) through grades 4-6 (level 2: loops, messages, if-else) to grades 7-9 (level 3:
 * variables, nested loops, combined conditions). Single-choice questions about what a program
 * does, and ordering questions (arrange the blocks; the right order stays on the server).
 * Programs in prompts are written one block after another with "→", a loop's inner blocks in
 * [ ]. Labels in English, in the style of block-based editors. Original questions.
 */
import { choice, FORTY_MINUTES, ordering, type ContentExam } from './types.ts';

export const programmingUnits = ['sequences', 'loops', 'events', 'conditions', 'variables'] as const;

const FLAG = ['when green flag clicked', 'event'] as const;

export const programmingExams: ContentExam[] = [
  {
    code: 'VP-1',
    subjectId: 6,
    level: 1,
    title: 'Visual Programming, level 1',
    timeLimitSeconds: FORTY_MINUTES,
    questions: [
      choice('events', 'Which block starts a program when the green flag is clicked?', 'b', ['move 10 steps', 'when green flag clicked', 'say Hello', 'turn right 15 degrees']),
      ordering('sequences', 'Arrange the blocks so the cat walks 10 steps, then says Hello.', [[...FLAG], ['move 10 steps', 'motion'], ['say Hello', 'looks']], [2, 0, 1]),
      choice('sequences', 'Program: when green flag clicked → move 10 steps → move 10 steps. How many steps does the cat move in all?', 'b', ['10', '20', '30', '2']),
      choice('sequences', 'Program: when green flag clicked → say Hello → say Bye. What does the cat say first?', 'a', ['Hello', 'Bye', 'Nothing', 'Hello and Bye at the same time']),
      ordering('sequences', 'Arrange the blocks so that when the flag is clicked, the cat says Hi and then plays the Meow sound.', [[...FLAG], ['say Hi', 'looks'], ['play sound Meow', 'sound']], [1, 2, 0]),
      choice('loops', 'Program: when green flag clicked → repeat 3 [ play sound Pop ]. How many times do you hear Pop?', 'c', ['1', '2', '3', '4']),
      choice('loops', 'Which block makes the blocks inside it run again and again, without stopping?', 'a', ['forever', 'wait 1 seconds', 'say Hi', 'move 10 steps']),
      choice('events', 'Program: when this sprite clicked → say Ouch! When does the cat say Ouch!?', 'b', ['when the green flag is clicked', 'when you click the cat', 'when a key is pressed', 'never']),
      ordering('events', 'Arrange the blocks so the cat jumps when you click it: first it goes up 20, then it comes down 20.', [['when this sprite clicked', 'event'], ['change y by 20', 'motion'], ['change y by -20', 'motion']], [2, 1, 0]),
      choice('conditions', 'Program: if touching edge? then turn right 180 degrees. When does the cat turn around?', 'b', ['all the time', 'only when it touches the edge', 'never', 'when the flag is clicked']),
      choice('sequences', 'The cat should walk and then say Hi. Which program is right?', 'b', ['say Hi → move 10 steps', 'move 10 steps → say Hi', 'say Hi → say Hi', 'move 10 steps → move 10 steps']),
      ordering('sequences', 'Arrange the blocks so that when the flag is clicked, the cat turns right and then walks 10 steps.', [[...FLAG], ['turn right 90 degrees', 'motion'], ['move 10 steps', 'motion']], [2, 0, 1]),
      choice('loops', 'Program: repeat 2 [ move 10 steps ]. How far does the cat walk?', 'c', ['2 steps', '10 steps', '20 steps', '12 steps']),
      choice('events', 'Which block starts a script when you press the space key?', 'd', ['when green flag clicked', 'forever', 'if touching edge? then', 'when space key pressed']),
      ordering('events', 'Arrange the blocks so that pressing the space key makes the cat say Go! and then walk 10 steps.', [['when space key pressed', 'event'], ['say Go!', 'looks'], ['move 10 steps', 'motion']], [1, 2, 0]),
      choice('conditions', 'Program: if key space pressed? then say Yes!. What must happen for the cat to say Yes!?', 'a', ['the space key is pressed', 'the cat is clicked', 'the cat touches the edge', 'nothing, it always says Yes!']),
      choice('sequences', "What kind of block is 'move 10 steps'?", 'c', ['a sound block', 'a looks block', 'a motion block', 'an event block']),
      choice('loops', 'Program: when green flag clicked → forever [ turn right 15 degrees ]. What does the cat do?', 'b', ['turns once and stops', 'spins around and around', 'walks forward', 'says hello']),
      ordering('sequences', 'Arrange the blocks so that when the flag is clicked, the cat says Ready, waits 1 second, then says Go!', [[...FLAG], ['say Ready', 'looks'], ['wait 1 seconds', 'control'], ['say Go!', 'looks']], [3, 1, 0, 2]),
      choice('sequences', "What does the block 'wait 1 seconds' do?", 'a', ['The program pauses for one second before the next block', 'The cat moves for one second', 'The program stops forever', 'The cat says 1']),
    ],
  },
  {
    code: 'VP-2',
    subjectId: 6,
    level: 2,
    title: 'Visual Programming, level 2',
    timeLimitSeconds: FORTY_MINUTES,
    questions: [
      choice('loops', 'Program (pen down): repeat 4 [ move 50 steps → turn right 90 degrees ]. What shape does the cat draw?', 'b', ['a triangle', 'a square', 'a circle', 'a straight line']),
      choice('loops', 'Program: repeat 3 [ repeat 2 [ play sound Pop ] ]. How many times do you hear Pop?', 'c', ['3', '5', '6', '9']),
      choice('conditions', 'Program: if x position > 100 then say Far! else say Near!. The cat is at x = 50. What does it say?', 'b', ['Far!', 'Near!', 'Far! and then Near!', 'nothing']),
      ordering('sequences', 'Arrange the blocks so that when the flag is clicked, the cat goes to the middle, points to the right, then glides to x: 100 y: 0.', [[...FLAG], ['go to x: 0 y: 0', 'motion'], ['point in direction 90', 'motion'], ['glide 1 secs to x: 100 y: 0', 'motion']], [2, 3, 0, 1]),
      choice('events', 'A script starts with: when I receive Start. Which block makes it run?', 'a', ['broadcast Start', 'when green flag clicked', 'say Start', 'wait 1 seconds']),
      choice('sequences', 'Program: move 10 steps → turn right 180 degrees → move 10 steps. Where does the cat end up?', 'a', ['back where it started', '20 steps away', '10 steps away', 'it does not move at all']),
      ordering('events', "Arrange the blocks so that when the message Start arrives, the cat appears, says Let's go! for 2 seconds, then disappears.", [['when I receive Start', 'event'], ['show', 'looks'], ["say Let's go! for 2 seconds", 'looks'], ['hide', 'looks']], [3, 0, 2, 1]),
      choice('loops', 'Program: repeat until touching edge? [ move 5 steps ]. When does the cat stop?', 'b', ['after 5 steps', 'when it touches the edge', 'never', 'when the flag is clicked again']),
      choice('conditions', 'Program: if touching color red? then say Hot!. The cat stands on a blue floor. What happens?', 'b', ['It says Hot!', 'Nothing happens', 'It moves to the red floor', 'The program stops']),
      choice('events', 'Two scripts: "when green flag clicked → say Hi" and "when green flag clicked → play sound Meow". What happens when the flag is clicked?', 'c', ['only Hi', 'only Meow', 'Hi and Meow at the same time', 'nothing']),
      ordering('events', 'Arrange the blocks so that clicking the cat makes it play the Meow sound, then change its colour, then send the message Next.', [['when this sprite clicked', 'event'], ['play sound Meow', 'sound'], ['change color effect by 25', 'looks'], ['broadcast Next', 'event']], [2, 3, 1, 0]),
      choice('loops', 'Program: repeat 5 [ change size by 10 ]. The cat starts at size 100. What size is it at the end?', 'c', ['105', '110', '150', '500']),
      choice('conditions', 'Program: if score = 10 then say You win!. The score is 9. Does the cat say You win!?', 'b', ['Yes', 'No', 'Only when the flag is clicked again', 'Yes, twice']),
      ordering('sequences', 'Arrange the blocks so that when the flag is clicked, the cat counts down: it says 3, then 2, then 1, each for 1 second, and then says Go!', [[...FLAG], ['say 3 for 1 seconds', 'looks'], ['say 2 for 1 seconds', 'looks'], ['say 1 for 1 seconds', 'looks'], ['say Go!', 'looks']], [3, 0, 4, 1, 2]),
      choice('events', "What does the block 'broadcast Jump' do?", 'a', [
        'It sends the message Jump, which starts every script that begins with when I receive Jump',
        'It makes the cat jump',
        'It plays a sound called Jump',
        'It stops every script',
      ]),
      choice('loops', 'A loop runs 10 times and turns the cat 36 degrees each time. How many degrees does the cat turn in all?', 'c', ['36', '100', '360', '3600']),
      ordering('events', 'Arrange the blocks so that pressing the space key makes the cat face left, walk 10 steps, then say Left!', [['when space key pressed', 'event'], ['point in direction -90', 'motion'], ['move 10 steps', 'motion'], ['say Left!', 'looks']], [3, 2, 0, 1]),
      choice('conditions', 'Program: if touching edge? and key space pressed? then say Yes. When does the cat say Yes?', 'b', ['when either one is true', 'only when both are true', 'never', 'always']),
      choice('loops', 'Which loop runs the blocks inside it exactly 8 times?', 'a', ['repeat 8', 'forever', 'repeat until touching edge?', 'wait 8 seconds']),
      choice('conditions', 'Which block lets the cat do one thing when something is true and another thing when it is false?', 'd', ['repeat 10', 'forever', 'wait until', 'if … then … else']),
    ],
  },
  {
    code: 'VP-3',
    subjectId: 6,
    level: 3,
    title: 'Visual Programming, level 3',
    timeLimitSeconds: FORTY_MINUTES,
    questions: [
      choice('variables', 'Program: set count to 0 → repeat 5 [ change count by 2 ]. What is count at the end?', 'c', ['5', '7', '10', '12']),
      choice('loops', 'Program: set n to 1 → repeat 4 [ set n to n × 2 ]. What is n at the end?', 'b', ['8', '16', '6', '32']),
      choice('conditions', 'Program: if x > 0 then [ if y > 0 then say A else say B ] else say C. The cat is at x = 20, y = −5. What does it say?', 'b', ['A', 'B', 'C', 'nothing']),
      ordering('variables', 'Arrange the blocks so that when the flag is clicked, score starts at 0, the cat waits until the space key is pressed, then score goes up by 1 and the cat says Point!', [[...FLAG], ['set score to 0', 'control'], ['wait until key space pressed?', 'control'], ['change score by 1', 'control'], ['say Point!', 'looks']], [4, 2, 0, 3, 1]),
      choice('loops', 'Program: repeat 3 [ repeat 4 [ move 10 steps ] → turn right 120 degrees ]. How many steps does the cat move in all?', 'c', ['40', '70', '120', '12']),
      choice('events', 'Sprite A: when green flag clicked → broadcast Go and wait → say Done. Sprite B: when I receive Go → say Hello for 2 seconds. When does Sprite A say Done?', 'b', [
        'at once, when the flag is clicked',
        'after Sprite B has finished saying Hello (about 2 seconds)',
        'never',
        'before Sprite B starts',
      ]),
      choice('variables', 'Program: set i to 1 → set total to 0 → repeat 4 [ change total by i → change i by 1 ]. What is total at the end?', 'b', ['4', '10', '6', '24']),
      ordering('events', 'Arrange the blocks so that when the flag is clicked, the stage changes to the Forest backdrop, the cat sends the message Begin and waits for it to be handled, then says The end.', [[...FLAG], ['switch backdrop to Forest', 'looks'], ['broadcast Begin and wait', 'event'], ['say The end', 'looks']], [2, 0, 3, 1]),
      choice('conditions', 'Program: if score > 50 or time < 10 then say Bonus!. The score is 30 and time is 5. Does the cat say Bonus!?', 'a', ['Yes, because one of the two is true', 'No, because the score is too low', 'No, because both must be true', 'Only when time is 0']),
      choice('loops', 'Program: repeat until x position > 100 [ change x by 30 ]. The cat starts at x = 0. At which x does it stop?', 'c', ['90', '100', '120', '130']),
      ordering('sequences', 'Arrange the blocks so that when the cat is clicked, it hides, waits half a second, jumps to a random place, and then shows again.', [['when this sprite clicked', 'event'], ['hide', 'looks'], ['wait 0.5 seconds', 'control'], ['go to random position', 'motion'], ['show', 'looks']], [3, 4, 1, 0, 2]),
      choice('conditions', 'Program: if not touching edge? then move 10 steps. The cat is touching the edge. What happens?', 'b', ['It moves 10 steps', 'It does not move', 'It bounces off the edge', 'It hides']),
      choice('events', "Which block makes the script 'when I start as a clone → go to random position' run?", 'a', ['create clone of myself', 'when green flag clicked', 'delete this clone', 'go to random position']),
      choice('variables', 'The list fruits holds: apple, banana, cherry. What is item 2 of fruits?', 'b', ['apple', 'banana', 'cherry', '2']),
      ordering('events', 'Arrange the blocks so that when the backdrop changes to Night, the cat puts on its sleep costume, plays the Yawn sound, then says Good night!', [['when backdrop switches to Night', 'event'], ['switch costume to sleep', 'looks'], ['play sound Yawn', 'sound'], ['say Good night!', 'looks']], [1, 3, 2, 0]),
      choice('loops', 'In a game, the program must keep checking whether the arrow keys are pressed for as long as the game runs. Which block should hold that check?', 'd', ['repeat 1', 'wait 1 seconds', 'when green flag clicked', 'forever']),
      choice('conditions', 'Program: set x to 7 → if (x mod 2) = 0 then say even else say odd. What does the cat say?', 'b', ['even', 'odd', '7', 'nothing']),
      ordering('sequences', 'Arrange the blocks so that when the flag is clicked, the cat faces right, glides across the stage in 2 seconds, then says Made it!', [[...FLAG], ['point in direction 90', 'motion'], ['glide 2 secs to x: 200 y: 0', 'motion'], ['say Made it!', 'looks']], [3, 1, 0, 2]),
      choice('sequences', 'The cat should say Hello and then walk, but in the program it walks first and then says Hello. How do you fix it?', 'a', ['Swap the order of the two blocks', 'Add a forever loop', 'Delete the green flag block', 'Change the sound']),
      choice('variables', 'Program: set a to 3 → set b to 5 → set a to b → set b to a. What are a and b at the end?', 'd', ['a = 3, b = 5', 'a = 5, b = 3', 'a = 3, b = 3', 'a = 5, b = 5']),
    ],
  },
];
